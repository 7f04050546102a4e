import { shownAddress } from '../reports/dimension/addresses';
import styles from './AddressLink.module.css';

/** Props of {@link AddressText}. */
export interface AddressTextProps {
  /** The full address, or a title that is not one. */
  readonly address: string;
  /** The scheme and host every address of the table shares, left out of the text (see addresses.ts). */
  readonly origin: string | null;
  readonly className?: string;
}

/** The head (cut with «…» when short of room) and the tail (never cut) of an address. */
function AddressParts({ address, origin }: Pick<AddressTextProps, 'address' | 'origin'>) {
  const { head, tail } = shownAddress(address, origin);
  return (
    <>
      {head ? (
        <span className={styles.head} data-part="head">
          {head}
        </span>
      ) : null}
      <span className={styles.tail} data-part="tail">
        {tail}
      </span>
    </>
  );
}

/**
 * A line's title in a graph's legend: a page address as the table shows it, but not as a link
 * (without the shared scheme and host, cut in its middle); any other title whole, cut at its end.
 * The caller puts the full title in a tooltip.
 */
export function AddressText({ address, origin, className }: AddressTextProps) {
  return (
    <span className={className ? `${styles.parts} ${className}` : styles.parts} data-testid="address-text">
      <AddressParts address={address} origin={origin} />
    </span>
  );
}

/** Props of {@link AddressLink}. */
export interface AddressLinkProps extends AddressTextProps {
  /** The full address: the link's target and its tooltip. */
  readonly address: string;
}

/**
 * A page address in a table cell, as a link to the page in a new tab: without the shared scheme
 * and host, cut in its middle so that its end (where pages differ) always shows, the full address
 * in the tooltip.
 */
export function AddressLink({ address, origin, className }: AddressLinkProps) {
  const classes = `${styles.parts} ${styles.link}`;
  return (
    <a className={className ? `${classes} ${className}` : classes} href={address} target="_blank" rel="noopener noreferrer" title={address} data-testid="row-address">
      <AddressParts address={address} origin={origin} />
    </a>
  );
}
