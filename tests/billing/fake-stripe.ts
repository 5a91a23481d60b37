import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A loopback stand-in for the two Stripe REST calls Murmur makes, so the real fetch, form
// encoding and status handling run. Sessions start open and unpaid; a test "pays" them.

export const FAKE_STRIPE_KEY = "sk_test_fake_murmur";

export interface FakeSession {
  id: string;
  object: "checkout.session";
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  mode: string;
  line_items_price: string | null;
  customer: string | null;
  subscription: string | null;
}

export interface FakeStripe {
  apiBase: string;
  sessions: Map<string, FakeSession>;
  /** Every request as received: method, path, Authorization header, raw body. */
  requests: { method: string; path: string; authorization: string | undefined; body: string }[];
  /** Answers the next request with this status (a Stripe outage) instead of handling it. */
  failNextWith: number | null;
  pay(id: string, paymentStatus?: FakeSession["payment_status"]): FakeSession;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions = new Map<string, FakeSession>();
  const requests: FakeStripe["requests"] = [];
  const fake: FakeStripe = {
    apiBase: "",
    sessions,
    requests,
    failNextWith: null,
    pay(id, paymentStatus = "paid") {
      const session = sessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      session.status = "complete";
      session.payment_status = paymentStatus;
      session.customer = `cus_${id.slice(-8)}`;
      session.subscription = `sub_${id.slice(-8)}`;
      return session;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    if (fake.failNextWith !== null) {
      const status = fake.failNextWith;
      fake.failNextWith = null;
      return send(status, { error: { type: "api_error", message: "fake outage" } });
    }
    if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const form = new URLSearchParams(body);
      const id = `cs_test_${randomUUID().replaceAll("-", "")}`;
      const metadata: Record<string, string> = {};
      for (const [key, value] of form) {
        const match = /^metadata\[(\w+)\]$/.exec(key);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const session: FakeSession = {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: "open",
        payment_status: "unpaid",
        client_reference_id: form.get("client_reference_id"),
        metadata,
        success_url: form.get("success_url") ?? "",
        cancel_url: form.get("cancel_url") ?? "",
        mode: form.get("mode") ?? "",
        line_items_price: form.get("line_items[0][price]"),
        customer: null,
        subscription: null,
      };
      sessions.set(id, session);
      return send(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === "GET" && match?.[1]) {
      const session = sessions.get(decodeURIComponent(match[1]));
      if (!session) return send(404, { error: { type: "invalid_request_error", code: "resource_missing" } });
      return send(200, session);
    }
    return send(404, { error: { type: "invalid_request_error", message: "Unrecognized request URL" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A `Stripe-Signature` header as Stripe computes it (HMAC-SHA256 of "t.payload"). */
export function stripeSignature(payload: string, secret: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

/** A webhook event wrapping a Checkout Session, as Stripe delivers it. */
export function checkoutEvent(
  session: FakeSession,
  type = "checkout.session.completed",
  id = `evt_${randomUUID().replaceAll("-", "")}`,
) {
  return { id, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object: { ...session } } };
}
