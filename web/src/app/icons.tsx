/** Line icons of the menus, 20 px, drawn with currentColor. */
import type { ReactNode } from 'react';

const icon = (children: ReactNode, size = 20) => (
  <svg viewBox="0 0 20 20" width={size} height={size} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {children}
  </svg>
);

export const ICONS = {
  campaigns: icon(<path d="M3 8.5v3l9 4V4.5l-9 4ZM12 7h2.5a2 2 0 0 1 0 6H12M5.5 12.3l1 4.2h2.2l-.9-3.2" />),
  reports: icon(<path d="M4 3.5h8l4 4v9H4zM12 3.5v4h4M7 11h6M7 14h4" />),
  audiences: icon(<path d="M7.5 9a2.7 2.7 0 1 0 0-5.4 2.7 2.7 0 0 0 0 5.4ZM2.5 16.5c.4-2.8 2.4-4.5 5-4.5s4.6 1.7 5 4.5M13 4a2.5 2.5 0 0 1 0 5M14.5 12.3c1.7.5 2.8 2 3 4.2" />),
  creative: icon(<path d="M10 2.5 11.8 7l4.7.4-3.6 3 1.1 4.6L10 12.6 6 15l1.1-4.6-3.6-3L8.2 7z" />),
  statistics: icon(<path d="M3.5 16.5h13M6 13.5V9.5M10 13.5V5.5M14 13.5V8" />),
  cabinet: icon(<path d="M3 6.5h14v10H3zM7 6.5V4.5a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2M3 10.5h14" />),
  profile: icon(<path d="M10 10a3.2 3.2 0 1 0 0-6.4 3.2 3.2 0 0 0 0 6.4ZM3.8 17c.6-3.2 3-5 6.2-5s5.6 1.8 6.2 5" />),
  collapse: icon(<path d="M12 5 7 10l5 5" />),
  expand: icon(<path d="M8 5l5 5-5 5" />),
  gear: icon(
    <>
      <circle cx="10" cy="10" r="2.5" />
      <path d="M10 2.5v2M10 15.5v2M2.5 10h2M15.5 10h2M4.7 4.7l1.4 1.4M13.9 13.9l1.4 1.4M4.7 15.3l1.4-1.4M13.9 6.1l1.4-1.4" />
    </>,
    18,
  ),
  copy: icon(
    <>
      <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
      <path d="M4 13V4.8C4 4.36 4.36 4 4.8 4H13" />
    </>,
    16,
  ),
  external: icon(<path d="M8 4H4.5v11.5H16V12M11 3.5h5.5V9M16.5 3.5 9 11" />, 14),
  search: icon(
    <>
      <circle cx="9" cy="9" r="5.5" />
      <path d="m13 13 4 4" />
    </>,
    16,
  ),
  more: (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <circle cx="4.5" cy="10" r="1.6" fill="currentColor" />
      <circle cx="10" cy="10" r="1.6" fill="currentColor" />
      <circle cx="15.5" cy="10" r="1.6" fill="currentColor" />
    </svg>
  ),
  chevronDown: icon(<path d="m5.5 8 4.5 4.5L14.5 8" />, 16),
  plus: icon(<path d="M10 4v12M4 10h12" />, 16),
  check: icon(<path d="m4.5 10.5 3.5 3.5 7.5-8" />, 16),
};
