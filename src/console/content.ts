/**
 * The console's words (content `console`, with `site.language` and `launch.moment`'s offset for Intl), as one
 * fragment the page queries and hands to the console app, which is loaded on its own and cannot run a query itself.
 */
import { graphql } from "gatsby";

/** Everything the console app reads from the content. */
export type ConsoleContent = Queries.ConsoleContentFragment;

export const query = graphql`
  fragment ConsoleContent on SiteContent {
    site {
      language
    }
    launch {
      moment
    }
    console {
      pageTitle
      heading
      noScript
      loading
      signedInAs
      localOperator
      viewerNote
      navigation {
        label
        dashboard
        search
        review
        audit
        draw
        launch
      }
      launch {
        heading
        funnelCaption
        stateColumn
        peopleColumn
        states {
          waiting
          invited
          accepted
          expired
          revoked
        }
        inviteHeading
        batchesHeading
        countLabel
        previewButton
        preview
        previewEmpty
        invite
        batchMade
        batchesCaption
        batchesEmpty
        batchColumns {
          createdAt
          operator
          requested
          invited
          queued
          sent
          failed
          state
        }
        batchStates {
          choosing
          sending
          done
        }
        batchPaused
        batchActionsColumn
        batchPause
        batchResume
        batchName
        days {
          heading
          chartLabel
          caption
          dayColumn
          empty
          series {
            waiting
            invited
            accepted
            expired
            revoked
          }
        }
        schedule {
          heading
          intro
          countLabel
          timeLabel
          save
          pause
          resume
          none
          running
          paused
          saved
        }
        invitation {
          heading
          none
          state
          place
          invitedAt
          expiresAt
          acceptedAt
          expiredAt
          revokedAt
          sendState
          sendAttempts
          sendError
          sentAt
          sendStates {
            queued
            sent
            failed
          }
        }
        personInvite
        personResend
        personRevoke
        personInvitation
      }
      none
      retry
      errors {
        accessTokenMissing
        accessTokenInvalid
        accessDenied
        notConfigured
        personNotFound
        reasonInvalid
        parameterInvalid
        actionNotApplicable
        operatorRoleRequired
        unavailable
      }
      ranges {
        label
        last7Days
        last30Days
        all
      }
      dashboard {
        heading
        daysIn
        signups {
          heading
          chartLabel
          caption
          empty
          dayColumn
          totalColumn
          noSource
        }
        utm {
          heading
          sourcesCaption
          campaignsCaption
          valueColumn
          signupsColumn
          empty
          otherValues
        }
        funnel {
          heading
          caption
          stepColumn
          peopleColumn
          shareColumn
          signedUp
          confirmed
          referred
          referralCounted
          invited
          accepted
          viralCoefficient
        }
        delivery {
          heading
          caption
          stateColumn
          countColumn
          oldestPending
          deadLettered
          erasuresRefused
          erasuresOverdue
        }
        topReferrers {
          heading
          caption
          empty
          nameColumn
          codeColumn
          referralsColumn
          flagsColumn
        }
      }
      deliveryStates {
        pending
        delivered
        refused
        demo
      }
      flags {
        sameIpAsReferrer {
          name
          explanation
        }
        sameIpAsOtherReferral {
          name
          explanation
        }
        domainCluster {
          name
          explanation
        }
        burst {
          name
          explanation
        }
      }
      holds {
        codeLimit {
          name
          explanation
        }
        domainLimit {
          name
          explanation
        }
      }
      search {
        heading
        label
        help
        submit
        invalid
        caption
        empty
      }
      people {
        nameColumn
        emailColumn
        codeColumn
        signedUpColumn
        stateColumn
        confirmed
        notConfirmed
        disqualified
        open
      }
      person {
        back
        detailsHeading
        email
        referralCode
        source
        properties
        createdAt
        confirmedAt
        disqualifiedAt
        reviewedAt
        deliveryState
        deliveryAttempts
        deliveryError
        deliveredAt
        position
        referrals
        entries
        referredBy
        flags
        hold
        referredHeading
        referredCaption
        referredEmpty
        counted
        countedYes
        countedNo
        auditHeading
        actionsHeading
      }
      review {
        heading
        intro
        caption
        empty
        more
      }
      audit {
        heading
        caption
        empty
        atColumn
        operatorColumn
        actionColumn
        personColumn
        reasonColumn
        changeColumn
        before
        after
        more
        actions {
          disqualify
          requalify
          approve
          sendAgain
          erase
          exportPerson
          personViewed
          drawCommitRequest
          drawCommit
          drawJobFailed
          drawRun
          drawRunRefused
          erasureDone
          erasureRefused
          inviteBatch
          invitePerson
          revokeInvitation
          resendInvitation
          launchSchedule
          pauseBatch
          resumeBatch
        }
      }
      actions {
        disqualify
        requalify
        approve
        sendAgain
        erase
        export
      }
      draw {
        heading
        intro
        drawLabel
        winnersLabel
        cutoffLabel
        roundLabel
        confirm
        submit
        committing
        progress
        failed
        committed
        runIntro
        runConfirm
        runSubmit
        running
        drawn
        runRefusals {
          notPublished
          roundNotPublished
          alreadyDrawn
          beaconRefused
          contentChanged
          listChanged
        }
        refusals {
          drawIdInvalid
          winnersInvalid
          cutoffInvalid
          otherDraw
          otherCutoff
          otherWinners
          entriesOpen
          roundPublished
          alreadyCommitted
          pseudonymClash
        }
      }
      dialog {
        title
        description
        reasonLabel
        reasonRequired
        reasonTooLong
        reasonControlCharacter
        reasonNamesAddress
        reasonNamesNumber
        reasonNamesPerson
        eraseWarning
        eraseConfirm
        eraseConfirmRequired
        confirm
        cancel
        working
        done
        erased
      }
    }
  }
`;
