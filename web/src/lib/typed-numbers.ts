/** Numbers typed or pasted: split on whitespace, commas and semicolons. */
export function typedNumbers(text: string): string[] {
  return text.split(/[\s,;]+/).filter((value) => value.length > 0);
}
