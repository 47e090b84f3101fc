/** The request of Klaviyo's Client API `POST /client/subscriptions/`: one profile to one list. */
import { JSON_API_CONTENT_TYPE } from "../../shared/contract";
import type { Submission } from "./submission";

/**
 * The API revision we are written against. Klaviyo supports each revision for two years
 * after its release, so move to a newer one (and re-check the body) before mid-2028.
 */
export const KLAVIYO_REVISION = "2026-07-15";

/** What the request needs besides the visitor's values. */
export interface ClientApiTarget {
  /** e.g. https://a.klaviyo.com/client/subscriptions/ */
  endpointUrl: string;
  /** The 6-character public API key (site id), sent as `company_id`. */
  publicApiKey: string;
  /** The list the profile joins. */
  listId: string;
  /** Klaviyo's "custom source": where the signup came from, shown on the profile; left out when empty. */
  customSource?: string | null;
}

/** The JSON:API body Klaviyo expects. */
export interface SubscriptionDocument {
  data: {
    type: "subscription";
    attributes: {
      custom_source?: string;
      profile: {
        data: {
          type: "profile";
          attributes: { email: string; first_name: string; last_name: string; properties?: Record<string, string> };
        };
      };
    };
    relationships: { list: { data: { type: "list"; id: string } } };
  };
}

/** The subscription document for one signup; empty profile `properties` are left out. */
export function subscriptionDocument(
  target: Pick<ClientApiTarget, "listId" | "customSource">,
  submission: Submission,
): SubscriptionDocument {
  const properties = submission.properties && Object.keys(submission.properties).length > 0 ? submission.properties : undefined;
  return {
    data: {
      type: "subscription",
      attributes: {
        ...(target.customSource ? { custom_source: target.customSource } : {}),
        profile: {
          data: {
            type: "profile",
            attributes: {
              email: submission.email,
              first_name: submission.firstName,
              last_name: submission.lastName,
              ...(properties ? { properties } : {}),
            },
          },
        },
      },
      relationships: { list: { data: { type: "list", id: target.listId } } },
    },
  };
}

/**
 * URL and fetch options of the Client API call. `mode: "cors"` because in `no-cors` mode
 * the browser would strip the `revision` header and the JSON:API content type.
 * @returns `[url, init]` for fetch (without an abort signal)
 */
export function clientApiRequest(target: ClientApiTarget, submission: Submission): [string, RequestInit] {
  const url = new URL(target.endpointUrl);
  url.searchParams.set("company_id", target.publicApiKey);
  return [
    url.toString(),
    {
      method: "POST",
      mode: "cors",
      headers: { revision: KLAVIYO_REVISION, "content-type": JSON_API_CONTENT_TYPE },
      body: JSON.stringify(subscriptionDocument(target, submission)),
    },
  ];
}
