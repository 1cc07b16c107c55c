// How Dockerfiles and .dockerignore files are read, for scripts/check-dockerfiles.mjs: only what
// that check needs of Docker's syntax (instructions with continuations, exec and shell forms,
// `&&`-joined commands, .dockerignore patterns with ** and negation).

/** Instructions with continuation lines joined and comments dropped. */
export function instructions(text) {
  const result = [];
  let current = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) return;
    if (current && line.startsWith('#')) return; // comment inside a continuation
    const continues = line.endsWith('\\');
    const body = continues ? line.slice(0, -1).trim() : line;
    if (current) current.text += ` ${body}`;
    else current = { line: index + 1, text: body };
    if (!continues) {
      const [, keyword, args] = current.text.match(/^(\S+)\s*(.*)$/);
      result.push({ line: current.line, keyword: keyword.toUpperCase(), args });
      current = null;
    }
  });
  return result;
}

/** The words of a shell command line or of a JSON (exec form) array. */
export const words = (args) =>
  args.startsWith('[') ? JSON.parse(args) : args.split(/\s+/).filter(Boolean);

/** A RUN line's simple commands: `a && b || c` → [a, b, c], each with how it is joined. */
export function commandsOf(args) {
  return args.split(/\s*(&&|\|\||;)\s*/).reduce((list, part, index, parts) => {
    if (index % 2 === 0) list.push({ words: words(part), after: parts[index - 1] ?? null });
    return list;
  }, []);
}

export function option(list, long, short) {
  const values = [];
  list.forEach((word, index) => {
    if (word.startsWith(`${long}=`)) values.push(word.slice(long.length + 1));
    else if (word === long || (short && word === short)) values.push(list[index + 1]);
  });
  return values;
}

/** A test of a path against .dockerignore's rules (the last matching rule wins). */
export function dockerignoreMatcher(text) {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      let source = '';
      for (let i = 0; i < pattern.length; i += 1) {
        if (pattern.startsWith('**/', i)) {
          source += '(?:.*/)?';
          i += 2;
        } else if (pattern.startsWith('**', i)) {
          source += '.*';
          i += 1;
        } else if (pattern[i] === '*') source += '[^/]*';
        else if (pattern[i] === '?') source += '[^/]';
        else source += pattern[i].replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negate, regex: new RegExp(`^${source}(?:/.*)?$`) };
    });
  return (file) => {
    let excluded = false;
    for (const rule of rules) if (rule.regex.test(file)) excluded = !rule.negate;
    return excluded;
  };
}
