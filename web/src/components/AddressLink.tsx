import { shownAddress } from '../reports/dimension/addresses';
import styles from './AddressLink.module.css';

/** Props of {@link AddressLink}. */
export interface AddressLinkProps {
  /** The full address: the link's target and its tooltip. */
  readonly address: string;
  /** The scheme and host every address of the table shares, left out of the text (see addresses.ts). */
  readonly origin: string | null;
  readonly className?: string;
}

/**
 * A page address in a table cell, as a link to the page in a new tab: without the shared scheme
 * and host, cut in its middle so that its end (where pages differ) always shows, the full address
 * in the tooltip.
 */
export function AddressLink({ address, origin, className }: AddressLinkProps) {
  const { head, tail } = shownAddress(address, origin);
  return (
    <a className={className ? `${styles.address} ${className}` : styles.address} href={address} target="_blank" rel="noopener noreferrer" title={address} data-testid="row-address">
      {head ? (
        <span className={styles.head} data-part="head">
          {head}
        </span>
      ) : null}
      <span className={styles.tail} data-part="tail">
        {tail}
      </span>
    </a>
  );
}
