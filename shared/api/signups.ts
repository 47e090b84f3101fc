/**
 * POST /api/signups's documents as zod schemas: the page's JSON request, the no-JavaScript form's fields and the one
 * 202 answer. The request schema is what the Worker reads a body with, so its issues become the API's error codes
 * (a refinement names its own in `params.code`); the signup rules themselves are shared/validation.ts's.
 */
import { z } from "zod";
import { ATTRIBUTION_PROPERTIES, FORM_FIELDS, HONEYPOT_FIELD } from "../contract";
import { REFERRAL_PARAMETER } from "../referral-links";
import { ATTRIBUTION_VALUE_MAX_CHARS, CUSTOM_SOURCE_MAX_CHARS } from "../validation";

/** At most this many profile properties: more than the page's names, so a count is refused before any name is read. */
export const PROPERTIES_MAX_COUNT = 20;
/** A property's name, at most (characters). */
export const PROPERTY_NAME_MAX_LENGTH = 40;

/** A text member: absent or null reads as "" (the shared rules then say it is required); any other non-string is an error. */
const text = (member: string) =>
  z
    .string({ error: `${member} must be a string.` })
    .nullish()
    .transform((value) => value ?? "");

const PROPERTY_NAME = `A property name has 1 to ${PROPERTY_NAME_MAX_LENGTH} characters.`;

/** Profile properties: an object of at most PROPERTIES_MAX_COUNT strings, counted before any member is read. */
const Properties = z
  .record(z.string(), z.unknown(), { error: "properties must be an object of strings." })
  .refine((properties) => Object.keys(properties).length <= PROPERTIES_MAX_COUNT, {
    error: `properties holds at most ${PROPERTIES_MAX_COUNT} members.`,
    params: { code: "too_many" },
  })
  .pipe(
    z.record(
      z
        .string()
        .min(1, { error: PROPERTY_NAME })
        .max(PROPERTY_NAME_MAX_LENGTH, { error: PROPERTY_NAME })
        // Only the names the page sends reach Klaviyo's profiles.
        .refine((name) => (ATTRIBUTION_PROPERTIES as readonly string[]).includes(name), {
          error: `A property's name is one of ${ATTRIBUTION_PROPERTIES.join(", ")}.`,
          params: { code: "unknown_property" },
        }),
      z
        .string({ error: "A property's value must be a string." })
        // The page's own cut of an attribution value, so nothing it sends is refused.
        .max(ATTRIBUTION_VALUE_MAX_CHARS, { error: `A property's value has at most ${ATTRIBUTION_VALUE_MAX_CHARS} characters.` }),
    ),
  );

/**
 * The JSON document POST /api/signups takes, members in the order they are checked. The three visitor fields are
 * neither trimmed nor validated here (shared/validation.ts). Unknown members are ignored: the form's body carries
 * Klaviyo's legacy fields too. The honeypot, `ref` and the form's `page` are read apart, whatever their type.
 */
export const SignupRequest = z.object({
  email: text("email"),
  firstName: text("firstName"),
  lastName: text("lastName"),
  /** Klaviyo's "custom source" of the page (trimmed); null (absent) for the service's default. */
  source: text("source")
    .transform((value) => value.trim())
    // The content check's limit, so every campaign's source fits.
    .pipe(z.string().max(CUSTOM_SOURCE_MAX_CHARS, { error: `source has at most ${CUSTOM_SOURCE_MAX_CHARS} characters.` }))
    .transform((value) => value || null),
  /** Klaviyo profile properties: UTM and attribution values (contract.ts: ATTRIBUTION_PROPERTIES). */
  properties: Properties.nullish().transform((value) => value ?? {}),
  /** Cloudflare Turnstile's token for this attempt; "" when there is none. */
  turnstileToken: text("turnstileToken").transform((value) => value.trim()),
  /** The referral code of the link the visitor came by; anything but text is ignored. */
  [REFERRAL_PARAMETER]: z.string().optional().catch(undefined),
  /** The honeypot: people never see it, so any value but empty text means a bot sent the request. */
  [HONEYPOT_FIELD]: z.unknown().optional(),
  /** The no-JavaScript form's page (FORM_FIELDS.page), where a failure leads back to; anything but text is ignored. */
  page: z.string().optional().catch(undefined),
});
/** What a client sends. */
export type SignupRequest = z.input<typeof SignupRequest>;
/** A signup request as the Worker reads it: text members "" when absent, properties {} when absent. */
export type SignupInput = z.output<typeof SignupRequest>;

/** The no-JavaScript form's fields (`application/x-www-form-urlencoded`): renamed to SignupRequest's members on arrival. */
export const SignupForm = z.object({
  [FORM_FIELDS.email]: z.string().optional(),
  [FORM_FIELDS.firstName]: z.string().optional(),
  [FORM_FIELDS.lastName]: z.string().optional(),
  [FORM_FIELDS.source]: z.string().optional(),
  [FORM_FIELDS.turnstileToken]: z.string().optional(),
  [FORM_FIELDS.page]: z.string().optional(),
  [REFERRAL_PARAMETER]: z.string().optional(),
  [HONEYPOT_FIELD]: z.string().optional(),
});
export type SignupForm = z.infer<typeof SignupForm>;

/**
 * The 202 answer, one document for everyone: a newcomer, an address already on the list and a bot caught by the
 * honeypot get these very bytes, so a stranger learns nothing about anyone from it. A person's standing reaches only
 * their inbox.
 */
export const SignupAnswer = z.object({ accepted: z.literal(true) });
export type SignupAnswer = z.infer<typeof SignupAnswer>;

/** The only 202 answer of POST /api/signups. */
export const SIGNUP_ACCEPTED: SignupAnswer = { accepted: true };
