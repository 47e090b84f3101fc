/**
 * A loopback stand-in for Cloudflare Access, for the console's tests: a team domain on 127.0.0.1 that publishes its
 * signing key as a JWKS at `/cdn-cgi/access/certs` (as Access does), and signs application tokens
 * (`Cf-Access-Jwt-Assertion`) with it, RS256 with the key's `kid` as Access does. It also holds a second key, never
 * published, for tokens "signed by another key".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

/** The Access application's AUD tag the stand-in signs for unless told another. */
export const STAND_IN_AUD = "4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2";

/** A token's lifetime unless told otherwise (s): Access's own default session is longer. */
const TOKEN_LIFETIME_S = 3600;

/** What a token says; each member defaults to a valid token of the stand-in's application. */
export interface TokenClaims {
  /** The identity (an operator signed in with their e-mail); null leaves it out. */
  email?: string | null;
  /** A service token's identity (its client id), instead of an e-mail. */
  commonName?: string;
  /** Access groups the identity belongs to (the `groups` claim); none by default. */
  groups?: string[];
  /** The audience (default STAND_IN_AUD). */
  aud?: string;
  /** The issuer (default the stand-in's team domain). */
  iss?: string;
  /** Expiry, seconds since the epoch (default an hour from now). */
  exp?: number;
  /** Sign with the published key (default) or with another one that Access never published. */
  key?: "team" | "other";
}

/** A running Access stand-in. */
export interface AccessStandIn {
  /** e.g. http://127.0.0.1:40125: ACCESS_TEAM_DOMAIN, and the tokens' issuer. */
  teamDomain: string;
  /** ACCESS_AUD: the AUD tag of the stand-in's application. */
  aud: string;
  /** A signed token (a JWT), as Access puts in `Cf-Access-Jwt-Assertion`. */
  sign(claims?: TokenClaims): Promise<string>;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

/** Start the stand-in on 127.0.0.1 at a free port. */
export async function startAccessStandIn(): Promise<AccessStandIn> {
  const team = await newKey("stand-in-team-key");
  const other = await newKey("stand-in-other-key");
  const server = http.createServer((request, response) => {
    if (request.method === "GET" && new URL(request.url ?? "/", "http://host").pathname === "/cdn-cgi/access/certs") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ keys: [team.publicJwk] }));
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const teamDomain = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    teamDomain,
    aud: STAND_IN_AUD,
    sign: async ({ email = "operator@example.com", commonName, groups, aud = STAND_IN_AUD, iss = teamDomain, exp, key = "team" } = {}) => {
      // Another key under the team key's kid: the verifier finds the published key, and its signature fails.
      const signer = key === "team" ? team : other;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        ...(email === null ? {} : { email }),
        ...(commonName === undefined ? {} : { common_name: commonName }),
        ...(groups === undefined ? {} : { groups }),
        type: "app",
      })
        .setProtectedHeader({ alg: "RS256", kid: team.kid })
        .setIssuer(iss)
        .setAudience(aud)
        .setSubject("stand-in-user")
        .setIssuedAt(now)
        .setExpirationTime(exp ?? now + TOKEN_LIFETIME_S)
        .sign(signer.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
