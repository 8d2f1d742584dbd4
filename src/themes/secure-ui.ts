/** The app marks its security UI (permission prompts, confirmations) with this attribute. */
export const SECURE_UI_ATTRIBUTE = 'data-secure-ui';

/** The highest z-index a theme may use: inline security prompts sit one above it. */
export const MAX_THEME_Z_INDEX = 9999;
