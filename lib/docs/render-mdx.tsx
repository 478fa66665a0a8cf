import { evaluate } from "@mdx-js/mdx";
import type { MDXComponents } from "mdx/types";
import type { ComponentProps } from "react";
import * as runtime from "react/jsx-runtime";

/** Card bodies render with the site's typography rather than a typography plugin. */
const components: MDXComponents = {
  h2: (props: ComponentProps<"h2">) => (
    <h3 className="mt-6 text-base font-semibold text-slate-900" {...props} />
  ),
  h3: (props: ComponentProps<"h3">) => <h4 className="mt-4 font-semibold text-slate-900" {...props} />,
  p: (props: ComponentProps<"p">) => <p className="mt-3 leading-relaxed text-slate-700" {...props} />,
  ul: (props: ComponentProps<"ul">) => (
    <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700" {...props} />
  ),
  ol: (props: ComponentProps<"ol">) => (
    <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700" {...props} />
  ),
  a: (props: ComponentProps<"a">) => <a className="font-medium text-brand-600 hover:underline" {...props} />,
  code: (props: ComponentProps<"code">) => (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800" {...props} />
  ),
  pre: (props: ComponentProps<"pre">) => (
    <pre
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block takes keyboard focus so it can be scrolled without a mouse (axe: scrollable-region-focusable).
      tabIndex={0}
      className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-[13px] leading-relaxed text-slate-100 [&_code]:bg-transparent [&_code]:p-0 [&_code]:text-slate-100"
      {...props}
    />
  ),
};

/** Evaluates a card's MDX body on the server (at build time for the static docs pages). */
export async function CardBody({ source }: { source: string }) {
  const { default: Content } = await evaluate(source, { ...runtime });
  return <Content components={components} />;
}
