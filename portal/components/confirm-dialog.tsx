import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A modal confirmation on the native <dialog> (focus moves in and is trapped, Escape cancels,
 * focus returns to the opener). The heading names what is at stake; the confirm button says
 * exactly what happens. `onConfirm` may fail: its error stays in the dialog.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The parent hears of a close once, at once. Escape fires `cancel` at once but `close` only in a
  // later task, and the browser runs input first: an Enter on the opener right after Escape would
  // open the dialog again and then be undone by the late `close` (seen in the e2e suite under load).
  const reported = useRef(false);
  const reportClose = () => {
    if (reported.current) return;
    reported.current = true;
    props.onClose();
  };
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setError(null);
      reported.current = false;
      dialog.showModal();
    }
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={reportClose}
      onClose={reportClose}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div id="confirm-body" class="dialog-body">
        {props.children}
      </div>
      {error ? (
        <p class="error-note" role="alert">
          {error}
        </p>
      ) : null}
      <div class="dialog-actions">
        <button
          type="button"
          class="button"
          onClick={() => {
            reportClose();
            ref.current?.close();
          }}
          disabled={busy}
        >
          Cancel
        </button>
        <button
          type="button"
          class={`button ${props.danger ? 'button-danger' : 'button-primary'}`}
          onClick={confirm}
          disabled={busy}
        >
          {busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
