/**
 * What of a proposal's arguments a notification must not carry, as a pattern the tests check its text
 * against: the argument names and the SKU, and the quantity as a number of its own — not the digits
 * inside a random id, a timestamp's milliseconds or a base64 line, which made `/750/` fail by chance.
 */
export function argumentLeak(quantity: number): RegExp {
  return new RegExp(`"arguments"|quantity|SKU-|(?:^|[^0-9A-Za-z.+/=_-])${quantity}(?:[^0-9A-Za-z+/=_-]|$)`);
}
