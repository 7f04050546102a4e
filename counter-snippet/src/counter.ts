/**
 * The counter: sends a page view on load and on every SPA navigation.
 * Installed as <script async src=".../counter/counter.js" data-project="ID" data-collector="URL">.
 * It never throws into the page: a blocked or absent collector costs the page nothing.
 */
(function (w: Window, d: Document) {
  const script = d.currentScript;
  if (!script) return;
  const project = Number(script.getAttribute('data-project'));
  const endpoint = (script.getAttribute('data-collector') || '') + '/hit';
  const visitor = visitorId();
  let lastUrl = '';

  function visitorId(): string {
    const key = '_stat_v';
    const fresh = (): string => Math.random().toString(36).slice(2) + Date.now().toString(36);
    try {
      let id = localStorage.getItem(key);
      if (!id) localStorage.setItem(key, (id = fresh()));
      return id;
    } catch (e) {
      return fresh();
    }
  }

  function pageView(): void {
    // The hash is a position inside a page, not a page, unless hash tracking is on.
    const url = location.href.split('#')[0] as string;
    if (url === lastUrl) return;
    const hit = {
      p: project,
      t: 'pageview',
      u: url,
      r: lastUrl || d.referrer,
      ti: d.title,
      sw: screen.width,
      sh: screen.height,
      v: visitor,
    };
    lastUrl = url;
    const body = JSON.stringify(hit);
    const pixel = (): void => {
      new Image().src = endpoint + '?' + new URLSearchParams(hit as unknown as Record<string, string>);
    };
    try {
      // text/plain needs no CORS preflight; sendBeacon survives the page unloading.
      if (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) return;
      fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(pixel);
    } catch (e) {
      pixel();
    }
  }

  const push = history.pushState;
  history.pushState = function (...args: Parameters<History['pushState']>) {
    push.apply(this, args);
    // SPA routers set the new title right after pushState: read it a tick later.
    setTimeout(pageView, 0);
  };
  w.addEventListener('popstate', () => setTimeout(pageView, 0));
  pageView();
})(window, document);
