import type { ReactNode } from 'react';
import { Badge } from '../components/ui';
import styles from './Placeholder.module.css';
import { PageTitle } from '../app/PageTitle';

/** Props of {@link Placeholder}. */
export interface PlaceholderProps {
  /** The screen's title. */
  readonly title: string;
  /** What will be here. */
  readonly text?: string;
  /** A label beside the title, such as «Бета». */
  readonly badge?: string;
  /** Links to what can be used meanwhile. */
  readonly children?: ReactNode;
}

/** A screen that is not built yet: its title and a note that it is coming (not a 404). */
export function Placeholder({ title, text, badge, children }: PlaceholderProps) {
  return (
    <section className={styles.panel} data-testid="placeholder">
      <PageTitle text={`${title} – Статистика`} />
      <h1 className={styles.title}>
        {title}
        {badge ? (
          <>
            {' '}
            <Badge tone="accent">{badge}</Badge>
          </>
        ) : null}
      </h1>
      <p className={styles.text}>{text ?? 'Этот раздел скоро появится.'}</p>
      {children}
    </section>
  );
}
