import { formatNumber } from '../lib/format';
import styles from './Change.module.css';

/**
 * A change against the previous 24 hours: «▲ 12,5%» in green, «▼ 3%» in red, nothing to
 * compare with (yesterday was 0) as «—».
 */
export function Change({ value }: { readonly value: number | null | undefined }) {
  if (value === null || value === undefined || !Number.isFinite(value)) {
    return (
      <span className={styles.none} title="Нет данных за предыдущие 24 часа">
        —
      </span>
    );
  }
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  const text = `${formatNumber(Math.abs(value), { maxFractionDigits: 1 })}%`;
  return (
    <span className={styles[direction]} data-direction={direction} title="По сравнению с предыдущими 24 часами">
      {direction === 'up' ? (
        <svg viewBox="0 0 8 8" width="8" height="8" aria-label="рост">
          <path d="M4 1l3.5 5h-7z" fill="currentColor" />
        </svg>
      ) : direction === 'down' ? (
        <svg viewBox="0 0 8 8" width="8" height="8" aria-label="падение">
          <path d="M4 7L.5 2h7z" fill="currentColor" />
        </svg>
      ) : null}
      {text}
    </span>
  );
}
