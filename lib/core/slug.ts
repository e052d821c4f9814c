// Branch names for results: readable, git-valid, and derived only from the operation's input so reruns agree.

/** Lowercase words joined by '-', safe as one git ref component, at most 60 characters. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .toLowerCase()
    .slice(0, 60)
    .replace(/[-.]+$/g, '');
  return slug.endsWith('.lock') ? `${slug}-x` : slug || 'change';
}
