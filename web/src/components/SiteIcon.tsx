import styles from './SiteIcon.module.css';

/** A site's favicon (base64 png from the api), or a neutral globe when it has none. */
export function SiteIcon({ favicon, size = 16 }: { readonly favicon: string | null | undefined; readonly size?: number }) {
  if (favicon) {
    const src = favicon.startsWith('data:') ? favicon : `data:image/png;base64,${favicon}`;
    return <img className={styles.icon} src={src} width={size} height={size} alt="" loading="lazy" />;
  }
  return (
    <svg className={styles.icon} viewBox="0 0 16 16" width={size} height={size} aria-hidden="true">
      <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
      <path d="M1.5 8h13M8 1.5c2 2 2.6 4.2 2.6 6.5S10 12.5 8 14.5M8 1.5C6 3.5 5.4 5.7 5.4 8S6 12.5 8 14.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}
