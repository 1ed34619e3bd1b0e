/**
 * The text pi puts back in the editor after /fork before a user message: the message's text
 * (a string content, or its text blocks joined by a newline). null: not a user message, or no text.
 */
export function editorTextOf(raw: Record<string, unknown>): string | null {
  if (raw.type !== 'message') return null;
  const message = raw.message as { role?: unknown; content?: unknown } | undefined;
  if (!message || message.role !== 'user') return null;
  const { content } = message;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string')
            .map((b) => b.text)
            .join('\n')
        : '';
  return text.trim() ? text : null;
}
