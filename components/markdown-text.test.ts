import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './markdown-text';

const html = (text: string) => renderToStaticMarkup(createElement(MarkdownText, { text }));

describe('MarkdownText', () => {
  it('renders the markdown of an answer instead of showing the asterisks', () => {
    const out = html('I found **2** products:\n\n- SKU-2011\n- SKU-2012');
    expect(out).toContain('<strong>2</strong>');
    expect(out).toContain('<li>SKU-2011</li>');
    expect(out).not.toContain('**');
  });

  it('keeps raw HTML as text: no element, no handler', () => {
    const out = html('Name: <img src=x onerror=alert(1)> <script>alert(1)</script>');
    expect(out).not.toMatch(/<img|<script/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('opens links with rel="noopener noreferrer" and drops javascript: links', () => {
    const out = html('[the policy](https://example.test/policy) and [click](javascript:alert(1))');
    expect(out).toContain('href="https://example.test/policy" rel="noopener noreferrer"');
    expect(out).not.toContain('javascript:');
  });

  it('shows an image as its description and fetches nothing', () => {
    const out = html('![stock chart](https://tracker.test/pixel.png)');
    expect(out).not.toContain('tracker.test');
    expect(out).toContain('[image: stock chart]');
  });
});
