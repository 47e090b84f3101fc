/**
 * Klaviyo's confirmation webhook as the operator sets it up (docs/delivery.md: Klaviyo's confirmation webhook): the
 * body the flow sends, as Klaviyo's template (its path and schema: shared/api/hooks.ts). No runtime types, so tests
 * render the same template Klaviyo would.
 */

/** The template variable Klaviyo replaces with the profile's address ("" when the profile has none). */
export const WEBHOOK_EMAIL_VARIABLE = "{{ person.email|default:'' }}";

/** The body the flow's webhook action sends (Klaviyo's template syntax), to paste into the flow as it is. */
export const WEBHOOK_BODY_TEMPLATE = `{"email": "${WEBHOOK_EMAIL_VARIABLE}"}`;
