/**
 * The counter, installed as
 *   <script async src=".../counter/counter.js" data-project="ID" data-collector="URL"></script>
 * It sends page views (with SPA navigation and, when asked, hash changes), custom events and
 * the user id through its API, outbound link clicks and engaged time; the full build adds
 * block analytics and reading depth. It never throws into the page: a blocked or absent
 * collector costs the page nothing. The design and the API are in ../README.md.
 */
import { startApi } from './api.js';
import { trackBlocks } from './blocks.js';
import { flushEngagement, startEngagement, trackEngagement } from './engagement.js';
import { configure } from './hit.js';
import { readOptions } from './options.js';
import { trackOutbound } from './outbound.js';
import { trackPageViews } from './pageviews.js';
import { flushReading, startReading, trackReading } from './reading.js';
import { visitorId } from './visitor.js';

const script = document.currentScript;
if (script) {
  const options = readOptions(script);
  configure(options.endpoint, options.project, visitorId());
  const observeBlocks = COMPILE_BLOCKS ? trackBlocks(options.attribute) : null;
  if (COMPILE_READING) trackReading(options.article);
  const leave = (hidden: boolean): void => {
    flushEngagement(hidden);
    if (COMPILE_READING) flushReading();
  };
  const enter = (): void => {
    startEngagement();
    if (COMPILE_READING) startReading();
    if (COMPILE_BLOCKS) observeBlocks!();
  };
  trackEngagement(leave);
  trackOutbound();
  startApi(options.userId, trackPageViews(options.hashes, leave, enter));
}
