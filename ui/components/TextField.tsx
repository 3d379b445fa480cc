import {
  FieldError,
  Input,
  Label,
  Text,
  TextField as AriaTextField,
  type TextFieldProps,
} from 'react-aria-components';

interface Props extends Omit<TextFieldProps, 'children' | 'isInvalid'> {
  label: string;
  description?: string;
  /** The message shown under the field; the field is invalid while it is set. */
  errorMessage?: string | null;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  placeholder?: string;
  size?: number;
}

/** A labelled text field: label, hint and error wired with aria-describedby and aria-invalid. */
export function TextField({
  label,
  description,
  errorMessage,
  inputMode,
  placeholder,
  size,
  ...props
}: Props) {
  return (
    <AriaTextField {...props} isInvalid={Boolean(errorMessage)} className="field">
      <Label className="field__label">{label}</Label>
      {description ? (
        <Text slot="description" className="field__hint">
          {description}
        </Text>
      ) : null}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Input className="field__input" inputMode={inputMode} placeholder={placeholder} size={size} />
    </AriaTextField>
  );
}
