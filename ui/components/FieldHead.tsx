import { FieldError, Label, Text } from 'react-aria-components';

/**
 * The label, hint and error of a field, inside any react-aria field (TextField, RadioGroup, Select):
 * the field's context wires them to its control with aria-labelledby, aria-describedby and aria-invalid.
 */
export function FieldHead({
  label,
  description,
  errorMessage,
}: {
  label: string;
  description?: string;
  errorMessage?: string | null;
}) {
  return (
    <>
      <Label className="field__label">{label}</Label>
      {description ? (
        <Text slot="description" className="field__hint">
          {description}
        </Text>
      ) : null}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </>
  );
}
