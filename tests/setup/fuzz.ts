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
      // Open-redirect and header-splitting shapes (see redirectTarget below).
      "/\t/evil.example",
      "/%09/evil.example",
      "/\r\n/evil.example",
      "/x\r\nSet-Cookie: a=1",
      "//evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "\uff0f\uff0fevil.example",
      // Control characters a database or a mail header should never receive.
      "\u0001",
      "a\u001bb",
      "\u007f",
      "\u009b",
      "line\nbreak",
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

/**
 * Redirect targets (`redirectTo`, `next`) a probe would try: every known way to make a browser
 * leave the site from a `Location` header, plus mutations of them. Tests assert the answer stays
 * on the site's origin (or is the fallback), never that a particular string comes back.
 */
export const REDIRECT_BYPASSES: readonly string[] = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\r\n/evil.example",
  "/x\r\nSet-Cookie: a=1",
  "/%0d%0aSet-Cookie:%20a=1",
  "/\u0000/evil.example",
  "/%00/evil.example",
  "\t//evil.example",
  "//evil.example",
  "///evil.example",
  "////evil.example/x",
  "/\\evil.example",
  "\\/evil.example",
  "\\\\evil.example",
  "\\evil.example",
  "/%2f/evil.example",
  "/%2F%2Fevil.example",
  "/%5c/evil.example",
  "/%5C%5Cevil.example",
  "%2f%2fevil.example",
  "%2F%2F/evil.example",
  "/%252f%252fevil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "http://evil.example",
  "https://evil.example/",
  "https:evil.example",
  "http:evil.example",
  "https:/evil.example",
  "http:\\\\evil.example",
  "ftp://evil.example",
  "//murmur.test@evil.example",
  "/@evil.example",
  "http://murmur.test@evil.example/",
  "http://evil.example#@murmur.test",
  "/\uff0f/evil.example",
  "\uff0f\uff0fevil.example",
  "/\u2215/evil.example",
  "\u2215\u2215evil.example",
  "/\u2044/evil.example",
  "\u29f8\u29f8evil.example",
  "/\uff3cevil.example",
  "\u3002evil.example",
  " /dashboard",
  " //evil.example",
  "\u00a0//evil.example",
  "\u3000//evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/../..//evil.example",
  "/%2e/%2e//evil.example",
  "/%2e%2e//evil.example",
  "/%09%2f/evil.example",
  "/\t\\evil.example",
  "/%5c%09/evil.example",
  "/\ud800//evil.example",
  "/\udfff",
  "/%E0%A4%A",
  "/dashboard?next=//evil.example#//evil.example",
  "",
  "dashboard",
  "/fr/login?x=1",
];

/** Redirect targets: the known bypasses, mutated (prefixes, suffixes, case) and mixed with hostile strings. */
export const redirectTarget: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...REDIRECT_BYPASSES) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom("", "/", " ", "\t", "\\", "/\t", "%2f", "\u3000"),
        fc.constantFrom(...REDIRECT_BYPASSES),
        fc.constantFrom("", "/", "?a=1", "#x", "\r\n", "%00"),
      )
      .map(([a, b, c]) => `${a}${b}${c}`),
  },
  { weight: 2, arbitrary: hostileString.filter((s) => s.length < 3_000) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom("/", "\\", "\t", "\n", "\r", ".", "%2f", "%5c", "%09", "evil.example", "@", ":", "\uff0f", " "), {
        maxLength: 8,
      })
      .map((parts) => parts.join("")),
  },
);

/** `Cookie` headers with broken encodings and shapes around the app's own cookies. */
export const hostileCookieHeader: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "murmur-org",
        "i18n_redirected",
        "murmur-billing-notice",
        "sb-murmur-auth-token",
        "sb-murmur-auth-token.0",
        "x",
      ),
      fc.oneof(
        fc.constantFrom("%E0%A4%A", "%", "%%", "%ff%fe", "%00", '"', "base64-%%%", "base64-eyJ1c2VyIjoiYSJ9", "{", "=", ""),
        hostileString.filter((s) => s.length < 200 && [...s].every(isCookieOctet)),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join("; "));

/** What a Cookie header can carry at all (a Request refuses NUL, CR, LF and non-Latin-1), minus the separator. */
function isCookieOctet(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code < 0x100 && c !== ";";
}

/** Bodies whose bytes are not UTF-8: stray continuation bytes, truncated sequences, overlongs, surrogates. */
export const invalidUtf8Body: fc.Arbitrary<Uint8Array<ArrayBuffer>> = fc
  .tuple(
    fc.constantFrom('{"name":"', '{"name":"Clinic ', '{"a":"'),
    fc.constantFrom(
      [0xff],
      [0xfe, 0xff],
      [0x80],
      [0xc3],
      [0xe0, 0xa4],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
    ),
    fc.constantFrom('"}', ' Dental"}'),
  )
  .map(([head, bad, tail]) => new Uint8Array([...Buffer.from(head), ...bad, ...Buffer.from(tail)]));

/**
 * A POST body a form action cannot read (app/utils/read-form.server.ts), with the stable code it must
 * answer instead of a 500. `contentType: null` sends no Content-Type header at all; send the body as
 * bytes so the Request does not add `text/plain` itself.
 */
export interface BadFormBody {
  contentType: string | null;
  body: string | Uint8Array<ArrayBuffer>;
  code: "bad_form" | "unsupported_media_type";
}

const MULTIPART = "multipart/form-data; boundary=murmur";
const URLENCODED = "application/x-www-form-urlencoded";

/** Known shapes: JSON and other types, no type, broken multipart, urlencoded text that is not UTF-8. */
export const BAD_FORM_BODIES: readonly BadFormBody[] = [
  { contentType: "application/json", body: '{"email":"a@b.test","password":"x"}', code: "unsupported_media_type" },
  { contentType: "application/json; charset=utf-8", body: "{}", code: "unsupported_media_type" },
  { contentType: "text/plain;charset=UTF-8", body: "email=a%40b.test&intent=password", code: "unsupported_media_type" },
  { contentType: null, body: "intent=update&name=x", code: "unsupported_media_type" },
  { contentType: "", body: "intent=update", code: "unsupported_media_type" },
  { contentType: "application/xml", body: "<form><email>a@b</email></form>", code: "unsupported_media_type" },
  { contentType: "multipart/mixed; boundary=murmur", body: "--murmur--\r\n", code: "unsupported_media_type" },
  { contentType: "application/x-www-form-urlencodedx", body: "a=1", code: "unsupported_media_type" },
  { contentType: `${URLENCODED}, text/plain`, body: "a=1", code: "unsupported_media_type" },
  { contentType: MULTIPART, body: "garbage", code: "bad_form" },
  {
    contentType: "multipart/form-data",
    body: '--murmur\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--murmur--\r\n',
    code: "bad_form",
  },
  { contentType: "multipart/form-data; boundary=", body: "--\r\n", code: "bad_form" },
  { contentType: MULTIPART, body: "", code: "bad_form" },
  { contentType: MULTIPART, body: '--murmur\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupdate', code: "bad_form" },
  { contentType: MULTIPART, body: "--murmur\r\n\r\nno headers\r\n--murmur--\r\n", code: "bad_form" },
  {
    contentType: MULTIPART,
    body: '--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--other--\r\n',
    code: "bad_form",
  },
  { contentType: URLENCODED, body: "name=%ff", code: "bad_form" },
  { contentType: URLENCODED, body: "name=Clinic%E0%A4%A", code: "bad_form" },
  { contentType: URLENCODED, body: "%ED%A0%80=x", code: "bad_form" },
  { contentType: URLENCODED, body: "name=100%", code: "bad_form" },
  { contentType: URLENCODED, body: "intent=update&name=%zz", code: "bad_form" },
  { contentType: URLENCODED, body: new Uint8Array([...Buffer.from("name=Clinic "), 0xff, 0xfe]), code: "bad_form" },
];

/** The known shapes, mixed with generated ones: other types, multipart without its delimiter, urlencoded that is not UTF-8. */
export const badFormBody: fc.Arbitrary<BadFormBody> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BAD_FORM_BODIES) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          null,
          "application/json",
          "text/plain",
          "text/html",
          "application/octet-stream",
          "application/ld+json",
          "audio/webm",
          "*/*",
          "form-data",
        ),
        fc.oneof(
          fc.json({ maxDepth: 2 }),
          hostileString.filter((s) => s.length < 2_000),
        ),
      )
      .map(([contentType, body]) => ({ contentType, body, code: "unsupported_media_type" as const })),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: "binary", maxLength: 200 })
      .filter((s) => !s.includes("--"))
      .map((body) => ({ contentType: MULTIPART, body, code: "bad_form" as const })),
  },
  {
    weight: 1,
    arbitrary: invalidUtf8Body.map((body) => ({ contentType: URLENCODED, body, code: "bad_form" as const })),
  },
);
