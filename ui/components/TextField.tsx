import { Input, TextArea, TextField as AriaTextField, type TextFieldProps } from 'react-aria-components';
import { FieldHead } from './FieldHead';

interface Props extends Omit<TextFieldProps, 'children' | 'isInvalid'> {
  label: string;
  description?: string;
  /** The message shown under the field; the field is invalid while it is set. */
  errorMessage?: string | null;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  placeholder?: string;
  size?: number;
  /** A text area of this many rows instead of a one-line input. */
  rows?: number;
}

/** A labelled text field: label, hint and error wired with aria-describedby and aria-invalid. */
export function TextField({
  label,
  description,
  errorMessage,
  inputMode,
  placeholder,
  size,
  rows,
  ...props
}: Props) {
  return (
    <AriaTextField {...props} isInvalid={Boolean(errorMessage)} className="field">
      <FieldHead label={label} description={description} errorMessage={errorMessage} />
      {rows ? (
        <TextArea className="field__input" inputMode={inputMode} placeholder={placeholder} rows={rows} />
      ) : (
        <Input className="field__input" inputMode={inputMode} placeholder={placeholder} size={size} />
      )}
    </AriaTextField>
  );
}
