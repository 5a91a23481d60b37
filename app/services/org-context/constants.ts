/** The query parameter a deep link uses to name the organisation its resource belongs to. */
export const ORG_SWITCH_PARAM = "org";
