import { Button, Group, NativeSelect, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountListQuerySchema } from '@contract/accounts';
import { AUDIT_ACTION_FAMILIES } from '@contract/audit';
import { useSearchTerm } from '../../lib/use-search-term';
import { useAccounts } from '../admin-accounts';
import { useAccountName } from './api';

/** The filters as the address holds them: days are `YYYY-MM-DD` in the user's own zone. */
export interface AuditFilterDays {
  readonly action: string;
  readonly from: string;
  readonly to: string;
  readonly accountId: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readFilters(params: URLSearchParams): AuditFilterDays {
  const action = params.get('action') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const accountId = params.get('accountId') ?? '';
  return {
    action: (AUDIT_ACTION_FAMILIES as readonly string[]).includes(action) ? action : '',
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    accountId: /^[1-9][0-9]{0,15}$/.test(accountId) ? accountId : '',
  };
}

/** Action family, a window of days and, for an admin, one account. */
export function AuditFiltersForm({
  admin,
  filters,
  onChange,
}: {
  admin: boolean;
  filters: AuditFilterDays;
  /** Called with the fields that changed. */
  onChange: (changes: Partial<AuditFilterDays>) => void;
}) {
  const { t } = useTranslation();
  const set = (field: keyof AuditFilterDays, value: string) => onChange({ [field]: value });
  const backwards = filters.from !== '' && filters.to !== '' && filters.from > filters.to;
  const any = Object.values(filters).some((value) => value !== '');
  return (
    <Group
      component="form"
      role="search"
      aria-label={t('audit.filters')}
      align="flex-end"
      gap="sm"
      onSubmit={(event) => event.preventDefault()}
    >
      <NativeSelect
        label={t('audit.filterAction')}
        value={filters.action}
        onChange={(event) => set('action', event.currentTarget.value)}
        data={[
          { value: '', label: t('audit.allActions') },
          ...AUDIT_ACTION_FAMILIES.map((family) => ({
            value: family,
            label: t(`audit.families.${family.slice(0, -1)}`, { defaultValue: family }),
          })),
        ]}
        w={{ base: '100%', xs: 220 }}
      />
      <TextInput
        type="date"
        label={t('audit.filterFrom')}
        value={filters.from}
        max={filters.to || undefined}
        onChange={(event) => set('from', event.currentTarget.value)}
        w={{ base: '100%', xs: 170 }}
      />
      <TextInput
        type="date"
        label={t('audit.filterTo')}
        value={filters.to}
        min={filters.from || undefined}
        onChange={(event) => set('to', event.currentTarget.value)}
        error={backwards ? t('audit.toBeforeFrom') : undefined}
        w={{ base: '100%', xs: 170 }}
      />
      {admin ? (
        <AccountFilter value={filters.accountId} onChange={(id) => set('accountId', id)} />
      ) : null}
      {any ? (
        <Button
          variant="subtle"
          onClick={() => onChange({ action: '', from: '', to: '', accountId: '' })}
        >
          {t('audit.clearFilters')}
        </Button>
      ) : null}
    </Group>
  );
}

/** An admin picks one account by name (searched on the server), or every account. */
function AccountFilter({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  // Once an account is chosen the box shows its label: that is not a search.
  const showsChoice = chosen !== null && search === chosen.label;
  const found = useSearchTerm(accountListQuerySchema.shape.search, search, { delay: 250 });
  const choices = useAccounts(
    {
      search: chosen && found.term === chosen.label ? '' : (found.term ?? ''),
      page: 1,
      pageSize: 50,
    },
    showsChoice || found.term !== null,
  );
  const data = (choices.data?.data ?? []).map((account) => ({
    value: String(account.id),
    label: `${account.name} (#${account.id})`,
  }));
  const opened = useAccountName(value && chosen?.value !== value ? value : '');
  if (value && !data.some((choice) => choice.value === value)) {
    const label = opened.data ? `${opened.data} (#${value})` : `#${value}`;
    data.unshift(chosen?.value === value ? chosen : { value, label });
  }
  return (
    <Select
      label={t('audit.filterAccount')}
      placeholder={t('audit.allAccounts')}
      searchable
      clearable
      data={data}
      value={value || null}
      onChange={(id, option) => {
        setChosen(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? '');
      }}
      searchValue={search}
      onSearchChange={setSearch}
      error={showsChoice ? undefined : found.error}
      nothingFoundMessage={t('audit.noAccountFound')}
      w={{ base: '100%', xs: 260 }}
    />
  );
}
