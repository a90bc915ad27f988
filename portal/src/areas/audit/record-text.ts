/** JSON text pretty-printed; other text (an empty field) as it is */
export const pretty = (text: string | undefined): string => {
  if (text === undefined || text === '') return '(empty)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};
