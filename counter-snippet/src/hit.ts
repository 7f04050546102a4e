import { material } from './material.js';
import { send, type Hit } from './send.js';

let endpoint = '';
let project = 0;
let visitor = '';
let userId = '';

/** The address of the current page view: every hit belongs to it. Empty before the first. */
export let page = '';
/** The material of the current page view (full build), carried by every hit of it. */
let about: Hit = {};

export function configure(to: string, projectId: number, visitorId: string): void {
  endpoint = to;
  project = projectId;
  visitor = visitorId;
}

/** Opens a page view at `url`; the full build reads the page's material now, for all its hits. */
export function setPage(url: string): void {
  page = url;
  if (COMPILE_READING) about = material();
}

/** Sets the site's user id carried by every later hit; empty clears it. */
export function setUserId(id: string): void {
  userId = id;
}

/** Sends a hit of type `t` about the current page view, with the type's own fields. */
export function hit(t: string, fields: Hit): void {
  const h: Hit = { p: project, t, u: page, v: visitor };
  if (userId) h.uid = userId;
  if (COMPILE_READING) for (const key in about) h[key] = about[key];
  for (const key in fields) h[key] = fields[key];
  send(endpoint, h);
}
