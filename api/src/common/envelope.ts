/** Every successful answer of the api: the specification's envelope. */
export interface Envelope<T> {
  responseStatus: number;
  result: T;
}

export function ok<T>(result: T): Envelope<T> {
  return { responseStatus: 200, result };
}
