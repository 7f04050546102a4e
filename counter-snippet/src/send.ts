/** A hit as the counter sends it; the keys, types and limits are schemas/src/hit.ts. */
export interface Hit {
  [key: string]: string | number | Params | undefined;
}

/** Custom event parameters: a flat object of string and number values. */
export interface Params {
  [key: string]: string | number;
}

/**
 * Sends a hit and never throws into the page. sendBeacon first: it outlives the page's
 * unloading. Then fetch with keepalive. Both send text/plain, which needs no CORS preflight.
 * Last, a GET pixel with the same keys, the parameters as JSON in one key.
 */
export function send(endpoint: string, hit: Hit): void {
  const pixel = (): void => {
    let query = '';
    for (const key in hit) {
      const value = hit[key];
      if (value != null) query += '&' + key + '=' + encodeURIComponent(typeof value == 'object' ? JSON.stringify(value) : value);
    }
    new Image().src = endpoint + '?' + query.slice(1);
  };
  try {
    const body = JSON.stringify(hit);
    if (!(navigator.sendBeacon && navigator.sendBeacon(endpoint, body))) {
      fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(pixel);
    }
  } catch (e) {
    pixel();
  }
}
