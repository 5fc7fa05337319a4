/**
 * A tiny, self-made dataset for tests (never a copy of the shared data). `writeFixtureDataset`
 * writes it to a directory; `files` may replace or delete any file to build a broken variant.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const product = (sku: string, name: string, category: string, price: string, stock: number, reorder: number, tags: string[]) =>
  `  {
    "sku": "${sku}",
    "name": "${name}",
    "category": "${category}",
    "unit_price_usd": ${price},
    "unit": "each",
    "stock_level": ${stock},
    "reorder_point": ${reorder},
    "location": {"aisle": 2, "bin": 7},
    "supplier_id": "SUP-01",
    "supplier_name": "Acme Test Supply",
    "lead_time_days": 4,
    "long_description": "Fixture product.",
    "tags": ${JSON.stringify(tags)}
  }`;

/** The fixture's files, relative path → text. */
export function fixtureFiles(): Record<string, string> {
  return {
    'catalogue.json': `[\n${[
      product('SKU-2001', 'Blue Widget', 'Widgets', '12.0', 40, 10, ['blue', 'widgets']),
      product('SKU-2002', 'Red Widget', 'Widgets', '7.25', 0, 5, ['red', 'widgets']),
      product('SKU-2003', 'Steel Gadget', 'Gadgets', '99.5', 3, 8, ['steel']),
    ].join(',\n')}\n]\n`,
    'orders.json': JSON.stringify(
      [
        {
          order_id: 'ORD-3001',
          customer_name: 'Zoë Tester',
          status: 'shipped',
          placed_at: '2026-01-02',
          shipped_at: '2026-01-03',
          delivered_at: null,
          carrier: 'DHL',
          tracking_number: 'DH1',
          estimated_delivery: '2026-01-05',
          items: [{ sku: 'SKU-2001', name: 'Blue Widget', quantity: 2, unit_price_usd: 12.5 }],
          total_usd: 25.5,
          shard: 'primary',
        },
        {
          order_id: 'ORD-9101',
          customer_name: 'Old Account',
          status: 'delivered',
          placed_at: '2025-01-02',
          shipped_at: null,
          delivered_at: null,
          carrier: null,
          tracking_number: null,
          estimated_delivery: null,
          items: [],
          total_usd: 0.5,
          shard: 'legacy',
        },
      ],
      null,
      2,
    ),
    'restock_rules.json': '{"min_quantity": 10, "auto_approve_max": 500, "reject_above": 5000}\n',
    'suppliers.json': '{"SUP-01": {"name": "Acme Test Supply", "lead_time_days": 4}}\n',
    'policy_docs/README.md': '# Notes\n\nNot part of the corpus.\n',
    'policy_docs/b_policy.md': '# Widget Policy\n\nIntro line about widgets.\n\n## 1. Returns\n\nWidgets can be returned within 10 days.\n\n## 2. Storage\n\nKeep widgets dry.\n',
    'policy_docs/a_glossary.md': '# Glossary\n\nA widget is a small thing. A gadget is a bigger thing.\n',
    'agent/system_prompt.txt': 'You are a fixture agent.\n',
    'agent/tool_descriptions.json': JSON.stringify({
      version: 'fixture-v1',
      tools: {
        search_products: { default: 'Find products.', ambiguous: 'Find anything.' },
        get_stock_level: { default: 'Stock of one SKU.' },
        get_order_status: { default: 'Status of one order.' },
        create_restock_request: { default: 'Raise a restock request.' },
        search_policy_docs: { default: 'Search the policies.' },
      },
    }),
    'golden/fixture_golden.jsonl': '{"id": "G900"}\n',
    'golden/mock_scripts/G900.json': JSON.stringify({
      case_id: 'G900',
      description: 'Looks up a SKU, then answers.',
      turns: [{ tool_calls: [{ name: 'get_stock_level', input: { sku: 'SKU-2001' } }] }, { text: 'There are 40.' }],
    }),
  };
}

const created: string[] = [];

/** Removes every temporary directory `writeFixtureDataset` created (call it in `afterAll`). */
export function removeFixtureDatasets(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes the fixture (with `overrides` applied; `null` deletes a file) into a fresh temporary
 * directory and returns its path.
 */
export function writeFixtureDataset(overrides: Record<string, string | null> = {}, dir?: string): string {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-fixture-'));
  if (!dir) created.push(root);
  const files: Record<string, string | null> = { ...fixtureFiles(), ...overrides };
  for (const [rel, text] of Object.entries(files)) {
    if (text === null) continue;
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
  return root;
}
