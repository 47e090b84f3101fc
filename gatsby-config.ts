import type { GatsbyConfig } from "gatsby";
import { sitemapOptions } from "./src/build/sitemap";

/** Gatsby configuration. Site content comes from content/site.yaml via gatsby-node.ts, not from here. */
const config: GatsbyConfig = {
  trailingSlash: "always",
  jsxRuntime: "automatic",
  graphqlTypegen: {
    typesOutputPath: "src/gatsby-types.d.ts",
    generateOnBuild: true,
  },
  plugins: ["gatsby-plugin-react-helmet", "gatsby-plugin-styled-components", { resolve: "gatsby-plugin-sitemap", options: sitemapOptions }],
};

export default config;
