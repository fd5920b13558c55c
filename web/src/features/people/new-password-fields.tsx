import { PasswordInput } from '@mantine/core';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';

/** A form's schema with a `confirm` field that must repeat its `password`. */
export function withConfirmation<Shape extends { password: z.ZodType<string> }>(
  schema: z.ZodObject<Shape>,
) {
  return schema.extend({ confirm: z.string() }).refine(
    (form) => {
      // The shape is generic here; its password and confirm fields are strings by the types above.
      const { password, confirm } = form as { password: string; confirm: string };
      return password === confirm;
    },
    { path: ['confirm'] },
  );
}

/**
 * A new password typed twice, as an invitation and a password reset ask for it; the first field
 * takes the focus when `autoFocus` is set.
 */
export function NewPasswordFields({
  label,
  password,
  confirm,
  errors,
  autoFocus = false,
}: {
  label: string;
  password: UseFormRegisterReturn<'password'>;
  confirm: UseFormRegisterReturn<'confirm'>;
  errors: FieldErrors<{ password: string; confirm: string }>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        label={label}
        description={t('invitation.passwordHint')}
        autoComplete="new-password"
        required
        data-autofocus={autoFocus || undefined}
        error={errors.password ? t('invitation.passwordShort') : undefined}
        {...password}
      />
      <PasswordInput
        label={t('invitation.confirm')}
        autoComplete="new-password"
        required
        error={errors.confirm ? t('invitation.confirmMismatch') : undefined}
        {...confirm}
      />
    </>
  );
}
