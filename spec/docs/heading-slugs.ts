// GitHub's heading anchors, shared by the docs' link check and the source-pointer check (not a spec itself).

/** the text without fenced code blocks (their lines kept empty, so line numbers stay) */
export function withoutFences(md: string): string {
  let fence: string | null = null;
  return md
    .split('\n')
    .map((line) => {
      const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence === null && m) {
        fence = m[1]!;
        return '';
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '')
          fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** the page's heading anchors as GitHub makes them: lower case, punctuation dropped, spaces to hyphens, repeats numbered */
export function headingSlugs(md: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(md).split('\n')) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}
