import { useState } from 'react';
import { useSnackbar } from '../../app/Snackbar';
import { Button, Checkbox, Spinner } from '../../components/ui';
import { calls, type CounterSettings } from '../../data/calls';
import { copyText } from '../../lib/browser';
import { useRequest } from '../../lib/hooks';
import styles from './CounterCode.module.css';

/** The snippet's options (spec 000 §2.6): analytics attributes, hashes, user id, widget. */
export interface CodeOptions {
  readonly use_block_analytics: boolean;
  readonly track_hashes: boolean;
  readonly track_user_id: boolean;
  readonly widget: boolean;
}

/** The options a project's saved settings imply. */
export function codeOptionsOf(settings: CounterSettings): CodeOptions {
  return {
    use_block_analytics: settings.use_block_analytics,
    track_hashes: settings.track_hashes,
    track_user_id: settings.track_user_id,
    widget: settings.counter_type === 1,
  };
}

const OPTIONS: readonly { readonly key: keyof CodeOptions; readonly label: string; readonly description: string }[] = [
  { key: 'use_block_analytics', label: 'Аналитика блоков', description: 'Клики и показы элементов с data-атрибутом' },
  { key: 'track_hashes', label: 'Учитывать хеш в адресе', description: 'Для сайтов с навигацией по #адресам' },
  { key: 'track_user_id', label: 'Передавать ID пользователя', description: 'Связывает визиты одного пользователя на разных устройствах' },
  { key: 'widget', label: 'Виджет на сайте', description: 'Кнопка 88×31 с просмотрами за сегодня' },
];

/**
 * The counter code with its options and a copy button («Код скопирован»). The code comes from
 * the api (`counter_code`) for the chosen options.
 */
export function CounterCode({ projectId, initial }: { readonly projectId: number; readonly initial: CodeOptions }) {
  const snackbar = useSnackbar();
  const [options, setOptions] = useState<CodeOptions>(initial);
  const code = useRequest(`${projectId}:${JSON.stringify(options)}`, (signal) => calls.counterCode(projectId, options, { signal }));
  const text = code.data?.code ?? '';
  const copy = () => {
    if (!text) return;
    void copyText(text).then((ok) => snackbar(ok ? 'Код скопирован' : 'Не удалось скопировать код: выделите его и скопируйте вручную'));
  };
  return (
    <div className={styles.root} id="code">
      <div className={styles.options}>
        {OPTIONS.map((o) => (
          <Checkbox
            key={o.key}
            checked={options[o.key]}
            onChange={(checked) => setOptions((current) => ({ ...current, [o.key]: checked }))}
            description={o.description}
            data-testid={`code-option-${o.key}`}
          >
            {o.label}
          </Checkbox>
        ))}
      </div>
      <div className={styles.codeBox}>
        <pre className={styles.code} data-testid="counter-code" aria-busy={code.loading}>
          {text || (code.error ? 'Не удалось получить код счётчика. Обновите страницу.' : '\u00a0')}
        </pre>
        {code.loading ? (
          <span className={styles.loading}>
            <Spinner size={16} />
          </span>
        ) : null}
      </div>
      <div className={styles.actions}>
        <Button variant="primary" onClick={copy} disabled={!text || code.loading} data-testid="copy-code">
          Скопировать код
        </Button>
        <span className={styles.help}>Вставьте код в HTML всех страниц сайта, перед закрывающим тегом &lt;/head&gt;.</span>
      </div>
    </div>
  );
}
