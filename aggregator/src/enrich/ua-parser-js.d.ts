// ua-parser-js 1.x (MIT) ships no types; version 2 does, but is AGPL. This covers what we call.
declare module 'ua-parser-js' {
  namespace UAParser {
    interface IResult {
      ua: string;
      browser: { name?: string; version?: string; major?: string };
      device: { model?: string; type?: string; vendor?: string };
      engine: { name?: string; version?: string };
      os: { name?: string; version?: string };
      cpu: { architecture?: string };
    }
  }
  class UAParser {
    constructor(ua?: string);
    getResult(): UAParser.IResult;
  }
  export = UAParser;
}
