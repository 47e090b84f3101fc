/** The webhooks other services call: Klaviyo's confirmation webhook (klaviyo.ts), checked by its shared secret. */
import { Hono } from "hono";
import { CONFIRMATION_WEBHOOK_PATH, ConfirmationRequest } from "../../../shared/api/hooks";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, withSettings } from "../middleware";
import { valid } from "../validate";
import { handleKlaviyoConfirmed, webhookSecret } from "./klaviyo";

export const hooks = refuseOtherMethods(
  new Hono<AppEnv>().post(
    CONFIRMATION_WEBHOOK_PATH,
    webhookSecret,
    accepts([JSON_CONTENT_TYPE], { orNone: true }),
    withSettings,
    valid("json", ConfirmationRequest, { code: "email_required" }),
    (c) => handleKlaviyoConfirmed(c, c.req.valid("json")),
  ),
);
