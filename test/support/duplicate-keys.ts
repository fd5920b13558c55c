/**
 * The keys that occur more than once in one object of a JSON text, at any depth (JSON.parse
 * keeps the last and says nothing). For log lines, where a field bound by a child logger and
 * given again in the call prints twice.
 */
export function duplicateKeys(json: string): string[] {
  const found: string[] = [];
  let at = 0;
  const space = () => {
    while (/\s/.test(json[at] ?? '')) at++;
  };
  const string = (): string => {
    const start = at;
    at++; // opening quote
    while (json[at] !== '"') at += json[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(json.slice(start, at)) as string;
  };
  const value = (): void => {
    space();
    const c = json[at];
    if (c === '{') {
      at++;
      const seen = new Set<string>();
      space();
      if (json[at] === '}') {
        at++;
        return;
      }
      for (;;) {
        space();
        const key = string();
        if (seen.has(key)) found.push(key);
        seen.add(key);
        space();
        at++; // colon
        value();
        space();
        if (json[at++] === '}') return;
      }
    } else if (c === '[') {
      at++;
      space();
      if (json[at] === ']') {
        at++;
        return;
      }
      for (;;) {
        value();
        space();
        if (json[at++] === ']') return;
      }
    } else if (c === '"') {
      string();
    } else {
      while (at < json.length && !/[,}\]\s]/.test(json[at]!)) at++;
    }
  };
  JSON.parse(json); // refuses anything that is not JSON, with the parser's own message
  value();
  return found;
}
