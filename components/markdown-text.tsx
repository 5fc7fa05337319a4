/**
 * A model's answer rendered as safe markdown: raw HTML stays text (react-markdown never renders it,
 * and rehype-sanitize strips anything unsafe that a plugin might add), links open without handing
 * over the opener or the referrer, and images are shown as their description (nothing is fetched).
 * No client directive: a server page renders an answer to HTML (the run page's final answer needs no
 * script), and the replay's client components bundle it as before.
 */
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * A remark plugin: raw HTML in an answer becomes plain text, so markup a tool returned is shown as
 * written (react-markdown would otherwise drop it silently, hiding what the model said).
 */
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

const COMPONENTS: Components = {
  a: ({ node: _node, href, children }) => (
    <a href={href} rel="noopener noreferrer" target="_blank">
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="muted">[image{alt ? `: ${alt}` : ''}]</span>,
};

export function MarkdownText({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <Markdown remarkPlugins={[htmlAsText]} rehypePlugins={[rehypeSanitize]} components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
}
