import type { CounterSettings } from '@stat/schemas/projects';
import { useSnackbar } from '../../app/Snackbar';
import { Button, Spinner } from '../../components/ui';
import { calls } from '../../data/calls';
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

/**
 * The counter code of a project's saved options, and a copy button («Код скопирован»). The options
 * (hashes, user id, block analytics, widget) are set once, in the settings beside it, and the code
 * follows what is saved: a second set of checkboxes here only disagreed with them.
 */
export function CounterCode({ projectId, options }: { readonly projectId: number; readonly options: CodeOptions }) {
  const snackbar = useSnackbar();
  const code = useRequest(`${projectId}:${JSON.stringify(options)}`, (signal) => calls.counterCode(projectId, options, { signal }));
  const text = code.data?.code ?? '';
  const copy = () => {
    if (!text) return;
    void copyText(text).then((ok) => snackbar(ok ? 'Код скопирован' : 'Не удалось скопировать код: выделите его и скопируйте вручную'));
  };
  return (
    <div className={styles.root} id="code">
      <div className={styles.codeBox}>
        <pre className={styles.code} data-testid="counter-code" aria-busy={code.loading}>
          {text ? <Unbroken text={text} /> : code.error ? 'Не удалось получить код счётчика. Обновите страницу.' : '\u00a0'}
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

/**
 * The code with each attribute kept whole: lines break only at its spaces and newlines, never
 * inside an address or at the hyphen of `data-track-hashes`. The text stays the same characters.
 */
function Unbroken({ text }: { readonly text: string }) {
  return (
    <>
      {text.split(/([ \n])/).map((part, i) =>
        part === ' ' || part === '\n' || part === '' ? part : (
          <span key={i} className={styles.token}>
            {part}
          </span>
        ),
      )}
    </>
  );
}
