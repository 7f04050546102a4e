/**
 * The URL parameters of the filters (spec 001 §3 "Report URL parameters"), in a module of their
 * own so that the menu can carry the global filters from report to report without the filter code.
 */
export const GLOBAL_FILTERS = 'globalFilters';
export const TABLE_FILTERS = 'tableFilters';
