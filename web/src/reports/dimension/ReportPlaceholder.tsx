import { docsLink } from '../../app/links';
import styles from './ReportPlaceholder.module.css';

/** A placeholder's title and its three lines of text. */
interface PlaceholderText {
  readonly title: string;
  readonly lines: readonly [string, string, string];
}

const AUDIENCE: PlaceholderText['lines'] = [
  'Пол, возраст и интересы посетителей берутся из данных аудиторных панелей и рекламных сетей.',
  'Счётчик на вашем сайте таких данных не получает, поэтому отчёт пока пуст.',
  'Остальные отчёты об аудитории — география, глубина и время визитов — доступны.',
];

/** Texts of the empty-state placeholders (spec 001 §2 "Empty-state placeholder reports"), by report. */
const TEXTS: Readonly<Record<string, PlaceholderText>> = {
  usability: {
    title: 'Блочная аналитика не подключена',
    lines: [
      'Блочная аналитика показывает, сколько раз блоки страницы были показаны и сколько по ним кликали.',
      'Чтобы данные появились, разметьте блоки на страницах сайта атрибутами счётчика.',
      'Первые данные появятся в отчёте через несколько минут после разметки.',
    ],
  },
  custom_vars: {
    title: 'Собственные события не настроены',
    lines: [
      'Собственные события — это действия посетителей, о которых сайт сообщает счётчику сам.',
      'Например, просмотр видео, отправка формы или клик по кнопке «Поделиться».',
      'Отправьте событие из кода сайта, и оно появится в отчёте вместе с параметрами.',
    ],
  },
  likes: {
    title: 'Лайки не собираются',
    lines: [
      'Отчёт показывает лайки и репосты материалов через кнопки социальных сетей.',
      'Счётчик пока не получает события кнопок социальных сетей.',
      'Когда их сбор появится, данные начнут поступать сюда автоматически.',
    ],
  },
  rating: {
    title: 'Сайт не участвует в рейтинге',
    lines: [
      'Рейтинг показывает место сайта среди сайтов его тематики по числу посетителей.',
      'Чтобы сайт появился в рейтинге, подайте заявку в настройках сайта на вкладке «Рейтинг».',
      'После проверки модератором позиции пересчитываются раз в сутки.',
    ],
  },
  sex: { title: 'Данные о поле посетителей недоступны', lines: AUDIENCE },
  age: { title: 'Данные о возрасте посетителей недоступны', lines: AUDIENCE },
  segments: { title: 'Данные об интересах посетителей недоступны', lines: AUDIENCE },
};

const DEFAULT_TEXT: PlaceholderText = {
  title: 'Данные для отчёта не собираются',
  lines: [
    'Счётчик на вашем сайте пока не передаёт данные, из которых строится этот отчёт.',
    'Подробнее о том, какие данные нужны отчёту, рассказано в документации.',
    'Остальные отчёты продолжают работать как обычно.',
  ],
};

/** The placeholder text of a report. */
function placeholderText(reportName: string): PlaceholderText {
  return Object.hasOwn(TEXTS, reportName) ? (TEXTS[reportName] ?? DEFAULT_TEXT) : DEFAULT_TEXT;
}

/**
 * What a report that is not connected or not collected shows instead of its graph and table:
 * an illustration, a title, three lines and «Подробнее» to the help page.
 */
export function ReportPlaceholder({ reportName }: { readonly reportName: string }) {
  const text = placeholderText(reportName);
  return (
    <section className={styles.panel} data-testid="report-placeholder" data-report={reportName}>
      <Illustration />
      <h2 className={styles.title}>{text.title}</h2>
      <div className={styles.lines}>
        {text.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <a className={styles.button} href={docsLink(`/new/report/${reportName}`)} target="_blank" rel="noopener noreferrer">
        Подробнее
      </a>
    </section>
  );
}

function Illustration() {
  // An empty chart card with a dashed line and a magnifier: nothing to show yet.
  return (
    <svg className={styles.illustration} viewBox="0 0 220 140" aria-hidden="true">
      <rect x="20" y="14" width="160" height="108" rx="12" fill="var(--accent-softer)" stroke="var(--border)" />
      <path d="M40 96 H160 M40 72 H160 M40 48 H160" stroke="var(--border)" strokeWidth="1.5" />
      <path d="M42 92 L72 78 L98 86 L124 60 L156 66" fill="none" stroke="var(--accent)" strokeWidth="3" strokeDasharray="6 6" strokeLinecap="round" opacity="0.55" />
      <circle cx="160" cy="96" r="22" fill="var(--surface)" stroke="var(--accent)" strokeWidth="4" />
      <path d="M176 112 L196 132" stroke="var(--accent)" strokeWidth="7" strokeLinecap="round" />
      <path d="M152 96 H168" stroke="var(--accent)" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
