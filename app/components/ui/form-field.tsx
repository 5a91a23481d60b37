import { type ReactNode, useId } from "react";

export interface FieldControlProps {
  id: string;
  name: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A labelled form field with help text and an error wired to the control (aria-invalid,
 * aria-describedby), as the Epic Stack does it; the control is whatever the render prop returns,
 * so a refused submit keeps the typed value and the form still posts without JavaScript.
 */
export function FormField({
  label,
  name,
  help,
  error,
  children,
}: {
  label: ReactNode;
  name: string;
  help?: ReactNode;
  error?: ReactNode;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, helpId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="ui-field" data-invalid={error ? "true" : undefined}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {error ? (
        <p className="ui-field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      {help ? (
        <p className="ui-field-help" id={helpId}>
          {help}
        </p>
      ) : null}
    </div>
  );
}
