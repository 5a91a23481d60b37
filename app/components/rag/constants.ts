// SPEC §2 and §9 constants of the assistant, in one place (the /records-qa page uses some today;
// the floating widget and drawer will use the rest).
export const ASSISTANT = {
  /** Chat: at most this many messages are kept. */
  maxMessages: 200,
  /** Citation chips shown before '+N more'. */
  visibleChips: 6,
  /** Suggestion chips when the chat is empty: two visit questions, two help questions. */
  suggestions: 4,
  /** The question textarea grows up to this height. */
  textareaMaxPx: 200,
  /** Drawer width: default, minimum, maximum share of the window. */
  drawerDefaultPx: 600,
  drawerMinPx: 360,
  drawerMaxShare: 0.92,
  /** Below this window width the drawer is a full-height bottom sheet. */
  compactBelowPx: 640,
  /** Floating button size, margin kept inside the window, and the drag distance under which it is a click. */
  buttonPx: 48,
  buttonMarginPx: 8,
  dragThresholdPx: 5,
  /** Source fetch: retried once after this delay, then the chip keeps what it has. */
  sourceRetryMs: 250,
} as const;
