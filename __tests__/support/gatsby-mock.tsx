/**
 * Jest stand-in for the `gatsby` module (Gatsby's unit-testing guide):
 * `graphql` is inert, `Link` renders an anchor, `navigate` is a mock to assert on.
 */
import React from "react";
import type * as Gatsby from "gatsby";

const gatsby = jest.requireActual<typeof Gatsby>("gatsby");

export const graphql = jest.fn();
export const navigate = jest.fn();
export const withPrefix = (path: string) => path;
export const useStaticQuery = jest.fn();

export const Link = jest.fn(
  ({
    to,
    activeClassName: _a,
    activeStyle: _s,
    getProps: _g,
    partiallyActive: _p,
    replace: _r,
    ...rest
  }: Record<string, unknown> & { to: string }) => React.createElement("a", { ...rest, href: to }),
);

export default gatsby;
