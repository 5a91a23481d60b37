/** Deeper than any request the auth API takes; jsonb parsing deep nesting can exhaust Postgres's stack. */
const MAX_DEPTH = 32;

/**
 * Why a decoded request value cannot be stored as-is, or null when it can: Postgres text refuses
 * NUL characters and jsonb refuses unpaired UTF-16 surrogates (JSON's "\ud800"), and both would
 * otherwise surface as 500s deep inside a handler.
 */
export function unstorableReason(value: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof v === "string") {
      if (!storableText(v)) return "text must be valid Unicode without NUL characters";
    } else if (v !== null && typeof v === "object") {
      if (depth >= MAX_DEPTH) return `nested more than ${MAX_DEPTH} levels deep`;
      for (const [key, child] of Object.entries(v)) {
        if (!storableText(key)) return "text must be valid Unicode without NUL characters";
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

export function storableText(text: string): boolean {
  return !text.includes("\0") && text.isWellFormed();
}
