import fc from "fast-check";

/** Characters a database or a JSON parser may refuse: NUL, unpaired surrogates, BOM, direction marks. */
const poisonChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("\u0000", "\ud800", "\udfff", "\ud83d") },
  { weight: 1, arbitrary: fc.constantFrom("\ufeff", "\u202e", "\u0085", "\u2028") },
);

/** An ordinary-looking string with a poison character somewhere inside. */
export const poisonString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 12 }), poisonChar, fc.string({ maxLength: 12 }))
  .map(([a, p, b]) => `${a}${p}${b}`);

/** Strings an attacker or a broken client would send: markup, SQL, escapes, odd Unicode, huge. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: poisonString },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "<script>alert(1)</script>",
      '"><img src=x onerror=alert(1)>',
      "' OR 1=1 --",
      "'; drop table auth.users; --",
      "\\",
      "\u0000",
      "a\u0000b",
      "\ud800",
      "\udfff",
      "x\ud83d",
      "\uffff",
      "\u202e",
      "%00",
      "%E0%A4%A",
      "%ff%fe",
      "\\u0000",
      "../../etc/passwd",
      "null",
      "undefined",
      "NaN",
      "-1",
      "1e309",
      "0x10",
      "123456",
      "000000",
      "totp",
      "phone",
      "webauthn",
      "sms",
      "invite",
      "signup",
      "magiclink",
      "recovery",
      "email_change",
      "password",
      "refresh_token",
      "pkce",
      "none",
      "24h",
      "-5h",
      "9999999999h",
      "user@example.test",
      "USER@EXAMPLE.TEST",
      "a@b",
      "+15550100100",
      "+0",
      "Correct-Horse-9",
      "http://murmur.test/after",
      "https://evil.example/",
      "javascript:alert(1)",
      "00000000-0000-0000-0000-000000000000",
      "service_role",
      "authenticated",
    ),
  },
  { weight: 1, arbitrary: hugeString(100_000) },
);

function hugeString(max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 1_000, max }))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
}

/** Any JSON value, with hostile strings mixed in at every level. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }) },
  ),
})).value;

/** Every body field name the auth API reads anywhere, so values reach validation and beyond. */
const FIELD_NAMES = [
  "email",
  "password",
  "phone",
  "token",
  "token_hash",
  "type",
  "data",
  "options",
  "redirect_to",
  "refresh_token",
  "auth_code",
  "code_verifier",
  "code_challenge",
  "code_challenge_method",
  "nonce",
  "channel",
  "create_user",
  "gotrue_meta_security",
  "factor_type",
  "friendly_name",
  "issuer",
  "challenge_id",
  "code",
  "user_metadata",
  "app_metadata",
  "email_confirm",
  "phone_confirm",
  "ban_duration",
  "role",
  "should_soft_delete",
  "scope",
];

/** Free-text fields that get stored, as strings or as JSON objects (metadata). */
const STORED_TEXT_FIELDS = ["friendly_name", "issuer", "password", "nonce", "token", "code", "channel", "refresh_token"];
const STORED_OBJECT_FIELDS = ["data", "user_metadata", "app_metadata"];

/**
 * Request bodies: arbitrary JSON; objects with the API's field names and hostile values; and,
 * most often, `plausible` (a body every endpoint would accept, since unknown keys are ignored)
 * with one or two fields dropped or made hostile, or with a character the database cannot store
 * in one stored field, so generated requests get past the first checks.
 */
export function hostileBody(plausible: Record<string, unknown>, extraValues: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const fieldValue = fc.oneof({ weight: 3, arbitrary: hostileValue }, { weight: 2, arbitrary: extraValues });
  const fields = fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 6 });
  const mutated = fc
    .tuple(
      fc.shuffledSubarray(Object.keys(plausible), { minLength: 1, maxLength: 2 }),
      fc.array(fc.option(fieldValue, { freq: 4 }), { minLength: 2, maxLength: 2 }),
    )
    .map(([keys, values]) => {
      const body: Record<string, unknown> = { ...plausible };
      keys.forEach((key, i) => {
        const value = values[i];
        if (value === null || value === undefined) delete body[key];
        else body[key] = value;
      });
      return body;
    });
  const poisoned = fc
    .tuple(fc.constantFrom(...STORED_TEXT_FIELDS, ...STORED_OBJECT_FIELDS), poisonString)
    .map(([key, text]) => ({ ...plausible, [key]: STORED_OBJECT_FIELDS.includes(key) ? { note: text, [text]: 1 } : text }));
  return fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: fields },
    { weight: 4, arbitrary: mutated },
    { weight: 3, arbitrary: poisoned },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Bodies that are not JSON at all, or broken JSON. */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "{",
    "}",
    "[1,2",
    '{"email":',
    '{"email": "a@b",}',
    "{'email': 'a@b'}",
    "nul",
    "tru",
    '"\\ud800"',
    '{"a":"\\u0000"}',
    '{"a":"\\x41"}',
    "\u0000",
    "NaN",
    "-",
    "1e999999",
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"x": 1}}}',
    "email=a%40b&password=x",
    "<xml/>",
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
);

export const queryString: fc.Arbitrary<string> = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom("grant_type", "redirect_to", "page", "per_page", "filter", "sort", "type", "token", "scope", "provider"),
      fc.string({ maxLength: 10 }),
    ),
    fc.oneof(
      hostileString.filter((s) => s.length < 2_000),
      fc.integer().map(String),
    ),
    { maxKeys: 4 },
  )
  .map((params) => new URLSearchParams(params as Record<string, string>).toString());
