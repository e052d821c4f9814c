// One terminal row of text, cut at the pane's edge: every pane is built from these so nothing wraps and breaks the layout.
import { Text } from 'ink';
import type { ReactNode } from 'react';

export interface LineProps {
  children: ReactNode;
  color?: string | undefined;
  dim?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

export function Line({ children, color, dim, bold, inverse }: LineProps) {
  return (
    <Text wrap="truncate-end" {...(color ? { color } : {})} dimColor={dim ?? false} bold={bold ?? false} inverse={inverse ?? false}>
      {children === '' ? ' ' : children}
    </Text>
  );
}
