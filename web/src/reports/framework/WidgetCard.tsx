import type { ReactNode } from 'react';
import styles from './WidgetCard.module.css';

/**
 * A widget's card, the live dashboard's and a conversion's alike: the title (a heading of the
 * given level, maybe a link), its tools on the right (tabs, chart types), then the body.
 */
export function WidgetCard({
  title,
  level = 2,
  tools,
  loading = false,
  testId,
  children,
}: {
  readonly title: ReactNode;
  /** The heading's level: 2 where the widgets stand under the page's title, 3 under a section's. */
  readonly level?: 2 | 3;
  readonly tools?: ReactNode;
  /** A request in flight: the card says it is busy. */
  readonly loading?: boolean;
  readonly testId: string;
  readonly children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={styles.card} data-testid={testId} aria-busy={loading}>
      <header className={styles.head}>
        <Heading className={styles.title}>{title}</Heading>
        {tools ? <div className={styles.tools}>{tools}</div> : null}
      </header>
      {children}
    </section>
  );
}
