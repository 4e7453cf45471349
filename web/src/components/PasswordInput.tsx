// Amplify's PasswordField with the show/hide labels translated once, for
// every password input of the app.

import { PasswordField, type PasswordFieldProps } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

type Props = Omit<PasswordFieldProps, 'showPasswordButtonLabel' | 'passwordIsHiddenLabel' | 'passwordIsShownLabel'>;

export function PasswordInput(props: Props) {
  const { t } = useTranslation();
  return (
    <PasswordField
      {...props}
      showPasswordButtonLabel={t('auth.showPassword')}
      passwordIsHiddenLabel={t('auth.passwordHidden')}
      passwordIsShownLabel={t('auth.passwordShown')}
    />
  );
}
