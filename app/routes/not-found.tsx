import { data } from "react-router";

// Unmatched paths (SPEC §2): the root error boundary renders "Page not found: {path}".
export function loader() {
  throw data({ kind: "unmatched" }, { status: 404 });
}

export function action() {
  throw data({ kind: "unmatched" }, { status: 404 });
}

export default function NotFound() {
  return null;
}
