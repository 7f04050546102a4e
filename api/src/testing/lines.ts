/** The whole text of a file answered line by line (a CSV call's `lines`). */
export async function textOf(lines: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const line of lines) text += line;
  return text;
}
