// An item's content: HTML the server sanitised (an allow-list, on every
// write path: shared/htmlsafe) or plain text.

import './reader.css';

export function ItemContent({ content, type }: { content: string; type?: string | undefined }) {
  if (type === 'text') {
    return (
      <div className="reader-content reader-content--text" data-testid="item-content">
        {content}
      </div>
    );
  }
  // Sanitised by the server (shared/htmlsafe); nothing else renders it.
  return <div className="reader-content" data-testid="item-content" dangerouslySetInnerHTML={{ __html: content }} />;
}
