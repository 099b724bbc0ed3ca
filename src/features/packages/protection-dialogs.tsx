import type { ProtectionRule } from '../../api/packages.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useDeleteProtectionRule } from './mutations.ts';

/** Deleting a rule lets Developers push and Maintainers delete the packages it matched. */
export function DeleteRuleDialog({ projectId, rule, onClose }: { projectId: number; rule: ProtectionRule; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeleteProtectionRule();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete rule ${rule.package_name_pattern}?`}
      description={`Packages matching ${rule.package_name_pattern} are no longer protected: Developers can push them and Maintainers delete them.`}
      confirmLabel="Delete rule"
      destructive
      write={remove}
      error={remove.error ? `The platform refused: ${errorText(remove.error)}` : null}
      onConfirm={() =>
        remove.mutate(
          { projectId, ruleId: rule.id },
          {
            onSuccess: () => {
              notify(`Deleted the rule for ${rule.package_name_pattern}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}
