/** POST /api/signups: the page's JSON and the no-JavaScript form's body, read by one schema (shared/api/signups.ts). */
import { Hono } from "hono";
import { SignupRequest } from "../../../shared/api/signups";
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, SIGNUPS_ENDPOINT } from "../../../shared/contract";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin } from "../middleware";
import { valid } from "../validate";
import { readSignupBody } from "./body";
import { handleSignup, refuseSignupBody, signupsConfigured } from "./signup";

export const signups = refuseOtherMethods(
  new Hono<AppEnv>().post(
    SIGNUPS_ENDPOINT,
    sameOrigin("Signups are taken only from the site's own pages."),
    accepts([JSON_CONTENT_TYPE, FORM_CONTENT_TYPE]),
    signupsConfigured,
    valid("json", SignupRequest, { read: readSignupBody, refuse: refuseSignupBody }),
    (c) => handleSignup(c, c.req.valid("json")),
  ),
);
