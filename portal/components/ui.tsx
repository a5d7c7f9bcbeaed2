import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PortalError } from '../api.ts';
import { onLinkClick } from '../router.ts';

export function Link(props: {
  href: string;
  class?: string;
  children: ComponentChildren;
  current?: boolean;
}) {
  return (
    <a
      href={props.href}
      class={props.class}
      onClick={onLinkClick}
      {...(props.current ? { 'aria-current': 'page' as const } : {})}
    >
      {props.children}
    </a>
  );
}

export function PageHeader(props: { title: string; lead?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.lead ? <p class="lead">{props.lead}</p> : null}
      </div>
      {props.actions ? <div class="page-actions">{props.actions}</div> : null}
    </header>
  );
}

export function Card(props: {
  title?: string;
  description?: ComponentChildren;
  children: ComponentChildren;
  id?: string;
}) {
  const headingId = props.id ? `${props.id}-title` : undefined;
  return (
    <section class="card" id={props.id} aria-labelledby={props.title ? headingId : undefined}>
      {props.title ? (
        <div class="card-head">
          <h2 id={headingId}>{props.title}</h2>
          {props.description ? <p class="muted">{props.description}</p> : null}
        </div>
      ) : null}
      {props.children}
    </section>
  );
}

export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{props.title}</p>
      {props.children ? <p class="muted">{props.children}</p> : null}
    </div>
  );
}

export function Badge(props: {
  tone?: 'good' | 'warn' | 'bad' | 'neutral' | 'accent';
  children: ComponentChildren;
}) {
  return <span class={`badge badge-${props.tone ?? 'neutral'}`}>{props.children}</span>;
}

export function ErrorNote(props: { error: PortalError | Error | null | undefined }) {
  if (!props.error) return null;
  return (
    <p class="error-note" role="alert">
      {props.error.message}
    </p>
  );
}

export function Loading() {
  return (
    <p class="muted loading" aria-live="polite">
      Loading…
    </p>
  );
}

/** Copies `text`; says "Copied" for two seconds. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="button button-small"
      onClick={async () => {
        await navigator.clipboard?.writeText(props.text).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-live="polite">{copied ? 'Copied' : (props.label ?? 'Copy')}</span>
    </button>
  );
}

export function CodeBlock(props: { code: string; label: string }) {
  return (
    <div class="code">
      <div class="code-bar">
        <span class="code-label">{props.label}</span>
        <CopyButton text={props.code} label="Copy" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="code-scroll" aria-label={props.label} tabIndex={0}>
        <pre>
          <code>{props.code}</code>
        </pre>
      </section>
    </div>
  );
}

/** A table that scrolls sideways on small screens; the scrolling region is reachable by keyboard. */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
    <section class="table-wrap" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
